// extract<Kind> types a kind of apis/ by its published OpenAPI definition, as the server types
// managedFields: a Service's ports are keyed by port and protocol there (the structural schema
// leaves the pair to the strategy), so two ports sharing a number are two items a manager owns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Service } from '../../apis/core/v1/service.js';
import { extractService } from '../../generated/applyconfigurations/core/v1/index.js';

test('extractService keeps both ports of one number (keyed by port and protocol)', () => {
  const ports = { 'k:{"port":53,"protocol":"UDP"}': { '.': {}, 'f:port': {}, 'f:protocol': {} }, 'k:{"port":53,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {} } };
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'dns',
      namespace: 'kube-system',
      managedFields: [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:ports': ports } } }],
    },
    spec: {
      ports: [
        { port: 53, protocol: 'UDP' },
        { port: 53, protocol: 'TCP', name: 'tcp' },
      ],
      clusterIP: '10.0.0.10',
    },
  } as Service;
  assert.deepEqual(extractService(svc, 'm'), {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'dns', namespace: 'kube-system' },
    spec: {
      ports: [
        { port: 53, protocol: 'UDP' },
        { port: 53, protocol: 'TCP', name: 'tcp' },
      ],
    },
  });
});

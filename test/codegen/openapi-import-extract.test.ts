// extract<Kind> of the apply configurations generated from kube's OpenAPI reads managedFields by
// the kind's structural schema: list-map keys (containers by name, ports by containerPort and
// protocol), atomic lists and int-or-string values come out as client-go's ExtractDeployment and
// ExtractService give them (client-go applyconfigurations' extract tests, for built-in kinds).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { generateKubernetesClients } from '../../generator/openapi-import/index.js';
import { clientProject, type ClientProject } from './openapi-import-project.js';

type Extract = (obj: object, fieldManager: string) => Record<string, unknown>;

let project: ClientProject;
let extractDeployment: Extract;
let extractService: Extract;
before(async () => {
  project = clientProject(generateKubernetesClients());
  const load = async (path: string): Promise<Record<string, Extract>> => (await import(pathToFileURL(join(project.root, path)).href)) as Record<string, Extract>;
  extractDeployment = (await load('generated/kubernetes/applyconfigurations/apps/v1/index.ts'))['extractDeployment']!;
  extractService = (await load('generated/kubernetes/applyconfigurations/core/v1/index.ts'))['extractService']!;
});
after(() => project.dispose());

const entry = (manager: string, fieldsV1: object) => ({ manager, operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1 });

test('extractDeployment: containers are a map keyed by name, the manager gets only its own fields', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      managedFields: [
        entry('ci', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:name': {}, 'f:image': {} } } } } } }),
        entry('hpa', { 'f:spec': { 'f:replicas': {} } }),
      ],
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1', ports: [{ containerPort: 80 }] },
            { name: 'sidecar', image: 'envoy' },
          ],
        },
      },
    },
  };
  assert.deepEqual(extractDeployment(deployment, 'ci'), {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } },
  });
  assert.deepEqual(extractDeployment(deployment, 'hpa'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 3 } });
});

test('extractService: ports keyed by port and protocol, targetPort int-or-string', () => {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'web',
      namespace: 'default',
      managedFields: [{ ...entry('me', { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } } } }), apiVersion: 'v1' }],
    },
    spec: {
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 'http' },
        { port: 443, protocol: 'TCP', targetPort: 8443 },
      ],
    },
  };
  assert.deepEqual(extractService(service, 'me'), {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 'http' }] },
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CRDS, cronTabCRD, cronTabSchema, cronTabVersion, startEnv, type Env, type Obj } from './env.js';

/** The causes of a 422 as `field: message` lines, as kubectl prints them. */
function causes(body: Obj): string[] {
  const details = body['details'] as { causes?: Array<{ field?: string; message?: string }> } | undefined;
  return (details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

function withSchema(schema: Obj): Obj {
  return cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, schema, extra: { selectableFields: undefined } })] });
}

describe('CustomResourceDefinition writes are validated as kube validates them', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env.close());

  /** PUT of the CRD as `mutate` changes it, retried while controllers write its status concurrently. */
  async function updateCRD(name: string, mutate: (crd: { spec: Obj & { versions: Obj[] } }) => void): Promise<{ status: number; body: Obj }> {
    for (;;) {
      const current = (await env.client.json('GET', `${CRDS}/${name}`)).body as { spec: Obj & { versions: Obj[] } };
      mutate(current);
      const r = await env.client.json('PUT', `${CRDS}/${name}`, current);
      if (r.status !== 409) return r;
    }
  }

  async function rejected(crd: Obj): Promise<string[]> {
    const r = await env.client.json('POST', CRDS, crd);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body['reason'], 'Invalid');
    assert.match(String(r.body['message']), /^CustomResourceDefinition\.apiextensions\.k8s\.io ".*" is invalid: /);
    return causes(r.body);
  }

  test('a property without a type is not structural (single-version schemas are reported at spec.validation, as kube reports them)', async () => {
    const schema = { type: 'object', properties: { spec: { properties: { image: { type: 'string' } } } } };
    assert.deepEqual(await rejected(withSchema(schema)), ['spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
  });

  test('per-version schemas that differ are reported per version', async () => {
    const bad = { type: 'object', properties: { spec: { type: 'object', properties: { image: { type: 'string' }, list: { type: 'array' } } } } };
    const crd = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true }), cronTabVersion('v2', { schema: bad })] });
    assert.deepEqual(await rejected(crd), ['spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[list].items: Required value: must be specified']);
  });

  test('a version without a schema: "schemas are required" (validation.go requireOpenAPISchema)', async () => {
    const crd = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, extra: { schema: undefined, selectableFields: undefined } })] });
    assert.deepEqual(await rejected(crd), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
  });

  test('exactly one storage version', async () => {
    const crd = cronTabCRD({ versions: [cronTabVersion('v1'), cronTabVersion('v2')] });
    assert.deepEqual(await rejected(crd), [
      'spec.versions: Invalid value: ["v1","v2"]: must have exactly one version marked as storage version',
      // Nothing to record as stored either, as kube answers.
      'status.storedVersions: Invalid value: []string{}: must have at least one stored version',
    ]);
  });

  test('the name must be <plural>.<group>; names and group are checked', async () => {
    const crd = cronTabCRD();
    (crd['metadata'] as Obj)['name'] = 'other.stable.example.com';
    assert.deepEqual(await rejected(crd), ['metadata.name: Invalid value: "other.stable.example.com": must be spec.names.plural+"."+spec.group']);

    const badKind = cronTabCRD({ kind: 'Cron_Tab' });
    const dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    assert.deepEqual(await rejected(badKind), [
      `spec.names.singular: Invalid value: "cron_tab": ${dns1035}`,
      "spec.names.kind: Invalid value: \"Cron_Tab\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.listKind: Invalid value: \"Cron_TabList\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);

    const noDot = cronTabCRD({ group: 'example' });
    assert.deepEqual(await rejected(noDot), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  });

  test('a rule that does not compile rejects the CRD', async () => {
    const schema = cronTabSchema();
    ((schema['properties'] as Obj)['spec'] as Obj)['x-kubernetes-validations'] = [{ rule: 'self.replicas >' }];
    const got = await rejected(withSchema(schema));
    assert.equal(got.length, 1);
    assert.match(
      got[0] as string,
      /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.replicas >", Message:"", MessageExpression:"", Reason:\(\*apiextensions\.FieldValueErrorReason\)\(nil\), FieldPath:"", OptionalOldSelf:\(\*bool\)\(nil\)\}: compilation failed: /,
    );

    const wrongType = cronTabSchema();
    ((wrongType['properties'] as Obj)['spec'] as Obj)['x-kubernetes-validations'] = [{ rule: 'self.replicas' }];
    const [typeErr] = await rejected(withSchema(wrongType));
    assert.match(typeErr as string, /\.rule: Invalid value: apiextensions\.ValidationRule\{.*\}: cel expression must evaluate to a bool$/);

    const unknownField = cronTabSchema();
    ((unknownField['properties'] as Obj)['spec'] as Obj)['x-kubernetes-validations'] = [{ rule: 'self.nope > 1' }];
    const [fieldErr] = await rejected(withSchema(unknownField));
    assert.match(fieldErr as string, /x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: /);
  });

  test('oldSelf is refused where old and new values cannot be correlated', async () => {
    const schema = cronTabSchema({ tags: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } });
    assert.deepEqual(await rejected(withSchema(schema)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[tags]',
    ]);
  });

  test('schema restrictions: additionalProperties at the root, defaults in metadata, list types', async () => {
    const root = { type: 'object', additionalProperties: { type: 'string' } };
    const plain = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, schema: root, extra: { subresources: undefined, selectableFields: undefined } })] });
    assert.deepEqual(await rejected(plain), ['spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root']);
    // With a status subresource, the root may only use the keywords that keep status's validation whole.
    const withStatus = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, schema: root, extra: { selectableFields: undefined } })] });
    assert.deepEqual(await rejected(withStatus), [
      'spec.validation.openAPIV3Schema: Invalid value: {"type":"object","additionalProperties":{"type":"string"}}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
      'spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root',
    ]);

    const meta = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } } };
    assert.deepEqual(await rejected(withSchema(meta)), ['spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata']);

    const listMap = cronTabSchema({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { port: { type: 'integer' } } } } });
    assert.deepEqual(await rejected(withSchema(listMap)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[ports].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map',
    ]);

    const badDefault = cronTabSchema({ size: { type: 'integer', default: 'big' } });
    // The default is validated on its own (a validator with an empty root path): its message names no path.
    assert.deepEqual(await rejected(withSchema(badDefault)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string"',
    ]);
    const badNested = cronTabSchema({ limits: { type: 'object', properties: { cpu: { type: 'integer' } }, default: { cpu: 'big' } } });
    assert.deepEqual(await rejected(withSchema(badNested)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[limits].default.cpu: Invalid value: "string": cpu in body must be of type integer: "string"',
    ]);
  });

  test('conversion webhook configuration', async () => {
    const versions = [cronTabVersion('v1', { storage: true }), cronTabVersion('v2')];
    const http = cronTabCRD({ versions, conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'http://example.com/convert' } } } });
    assert.deepEqual(await rejected(http), ['spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]']);
    const none = cronTabCRD({ versions, conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v3'], clientConfig: { service: { namespace: 'default', name: 'conv' } } } } });
    assert.deepEqual(await rejected(none), ['spec.conversion.conversionReviewVersions: Invalid value: []string{"v3"}: must include at least one of v1, v1beta1']);
    const missing = cronTabCRD({ versions, conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } } });
    assert.deepEqual(await rejected(missing), ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook']);
  });

  test('printer columns and selectable fields', async () => {
    const crd = cronTabCRD({
      versions: [
        cronTabVersion('v1', {
          storage: true,
          extra: {
            additionalPrinterColumns: [{ name: 'X', type: 'string', format: 'text', jsonPath: 'spec.x' }],
            selectableFields: [{ jsonPath: '.spec.nope' }, { jsonPath: '.metadata.name' }],
          },
        }),
      ],
    });
    assert.deepEqual(await rejected(crd), [
      'spec.additionalPrinterColumns[0].format: Invalid value: "text": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      'spec.selectableFields[0].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      // The schema does not describe metadata: the path cannot be resolved before it is refused.
      'spec.selectableFields[1].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
    ]);
  });

  test('defaults: singular, listKind, conversion None and status.storedVersions; a new storage version is recorded', async () => {
    const crd = cronTabCRD({ group: 'defaults.example.com', versions: [cronTabVersion('v1', { storage: true }), cronTabVersion('v2', { served: false })] });
    const names = (crd['spec'] as Obj)['names'] as Obj;
    delete names['singular'];
    const created = await env.client.json('POST', CRDS, crd);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const spec = created.body['spec'] as { names: Obj; conversion: Obj };
    assert.equal(spec.names['singular'], 'crontab');
    assert.equal(spec.names['listKind'], 'CronTabList');
    assert.deepEqual(spec.conversion, { strategy: 'None' });
    // v1's CustomResourceDefinitionNames: plural and kind have no omitempty.
    assert.deepEqual(created.body['status'], { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    assert.equal((created.body['metadata'] as Obj)['generation'], 1);

    const updated = await updateCRD('crontabs.defaults.example.com', (c) => {
      c.spec.versions = [cronTabVersion('v1'), cronTabVersion('v2', { storage: true })];
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual((updated.body['status'] as Obj)['storedVersions'], ['v1', 'v2']);
    assert.equal((updated.body['metadata'] as Obj)['generation'], 2);

    const r = await updateCRD('crontabs.defaults.example.com', (c) => {
      c.spec.versions = [cronTabVersion('v2', { storage: true })];
    });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body), [
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);

    const immutable = await updateCRD('crontabs.defaults.example.com', (c) => {
      c.spec['group'] = 'other.example.com';
    });
    // The CRD type's own schema declares the rule (a CEL transition rule), before the strategy's check.
    assert.equal(immutable.status, 422);
    assert.ok(
      causes(immutable.body).some((c) => c.startsWith('spec.group: ')),
      JSON.stringify(causes(immutable.body)),
    );
  });

  test('protected groups need the API approval annotation', async () => {
    const crd = cronTabCRD({ group: 'things.k8s.io' });
    assert.deepEqual(await rejected(crd), [
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
  });
});

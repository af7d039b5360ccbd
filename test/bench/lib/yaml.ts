// Large YAML request bodies for the YAML decoding bench and tests.

/** A Namespace in block YAML of about `bytes` bytes: an unknown `junk` mapping of short entries (pruned on create). */
export function largeYAMLNamespace(name: string, bytes: number): Buffer {
  const lines = ['apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: ${name}`, 'junk:'];
  let size = lines.join('\n').length;
  for (let i = 0; size < bytes - 64; i++) {
    const line = `  key${i}: value number ${i} of a large YAML body`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

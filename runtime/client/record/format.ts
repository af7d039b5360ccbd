import { goFormat } from '../../apimachinery/patch/strategic/gosort.js';

/**
 * fmt.Sprintf for the messages of Eventf: the verbs controllers use (%v %s %d %q %t %x %f %%),
 * with Go's markers for a missing operand (`%!v(MISSING)`), an unknown verb (`%!z(…)`) and
 * surplus operands (`%!(EXTRA …)`). Flags and widths are not interpreted.
 */
export function sprintf(format: string, ...args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    const verb = format[i];
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatVerb(verb, args[next++]);
  }
  if (next < args.length)
    out += `%!(EXTRA ${args
      .slice(next)
      .map((a) => `${goTypeName(a)}=${goFormat(a)}`)
      .join(', ')})`;
  return out;
}

function formatVerb(verb: string, arg: unknown): string {
  switch (verb) {
    case 'v':
    case 's':
      return arg instanceof Error ? arg.message : goFormat(arg);
    case 'd':
      return typeof arg === 'number' || typeof arg === 'bigint' ? String(typeof arg === 'number' ? Math.trunc(arg) : arg) : bad(verb, arg);
    case 'q':
      return typeof arg === 'string' ? JSON.stringify(arg) : bad(verb, arg);
    case 't':
      return typeof arg === 'boolean' ? String(arg) : bad(verb, arg);
    case 'x':
      if (typeof arg === 'number' && Number.isInteger(arg)) return arg.toString(16);
      if (typeof arg === 'bigint') return arg.toString(16);
      return typeof arg === 'string' ? Buffer.from(arg, 'utf8').toString('hex') : bad(verb, arg);
    case 'f':
      return typeof arg === 'number' ? arg.toFixed(6) : bad(verb, arg);
    default:
      return bad(verb, arg);
  }
}

function bad(verb: string, arg: unknown): string {
  return `%!${verb}(${goTypeName(arg)}=${goFormat(arg)})`;
}

function goTypeName(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float64';
    case 'bigint':
      return 'int64';
    default:
      return v === null || v === undefined ? '<nil>' : 'map[string]interface {}';
  }
}

import { z } from 'zod';

/** The schema inside optional/default/prefault/nullable/preprocess wrappers (`.transform()`: its input side). */
export function unwrapSchema(schema: z.core.$ZodType): z.core.$ZodType {
  let node = schema;
  for (let i = 0; i < 16; i++) {
    if (
      node instanceof z.ZodOptional ||
      node instanceof z.ZodDefault ||
      node instanceof z.ZodPrefault ||
      node instanceof z.ZodNullable
    ) {
      node = node.unwrap();
    } else if (node instanceof z.ZodPipe) {
      // preprocess = pipe(transform, schema): the schema is the out side; .transform() = pipe(schema, transform).
      node = node.in instanceof z.ZodTransform ? node.out : node.in;
    } else {
      return node;
    }
  }
  return node;
}

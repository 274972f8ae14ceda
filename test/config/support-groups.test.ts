/** SUPPORT_CHAT_ID: one support group or several, each a group id, none twice. */
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config/env.js';

const parse = (v?: string) => envSchema.safeParse(v === undefined ? {} : { SUPPORT_CHAT_ID: v });

describe('SUPPORT_CHAT_ID', () => {
  it('takes one group or several, comma-separated', () => {
    expect(parse('-1001')).toMatchObject({ success: true, data: { SUPPORT_CHAT_ID: ['-1001'] } });
    expect(parse(' -1001, -1002 ,-1003')).toMatchObject({
      success: true,
      data: { SUPPORT_CHAT_ID: ['-1001', '-1002', '-1003'] },
    });
    expect(parse()).toMatchObject({ success: true, data: { SUPPORT_CHAT_ID: [] } });
    expect(parse('')).toMatchObject({ success: true, data: { SUPPORT_CHAT_ID: [] } });
  });

  it('refuses what is not a group id, and a group listed twice', () => {
    expect(parse('1001').success).toBe(false);
    expect(parse('-1001,support').success).toBe(false);
    expect(parse('-1001,-1001').success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse';

function parse(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  return events;
}

describe('the server-sent events parser', () => {
  it('reads named events and skips comments', () => {
    expect(
      parse([': open\n\nevent: request\ndata: {"id":"a"}\n\n: keep-alive\n\nevent: closed\ndata: {"id":"a","state":"approved"}\n\n']),
    ).toEqual([
      { event: 'request', data: '{"id":"a"}' },
      { event: 'closed', data: '{"id":"a","state":"approved"}' },
    ]);
  });

  it('joins events split anywhere across chunks, CRLF included', () => {
    const text = 'event: request\r\ndata: {"id":"b"}\r\n\r\ndata: plain\r\n\r\n';
    const whole = parse([text]);
    for (let i = 1; i < text.length; i++) expect(parse([text.slice(0, i), text.slice(i)])).toEqual(whole);
    expect(whole).toEqual([
      { event: 'request', data: '{"id":"b"}' },
      { event: 'message', data: 'plain' },
    ]);
  });

  it('joins multi-line data, accepts a field without a space or a value, and waits for the blank line', () => {
    expect(parse(['event:x\ndata:one\ndata\ndata: three\n\n'])).toEqual([{ event: 'x', data: 'one\n\nthree' }]);
    expect(parse(['event: request\ndata: {}\n'])).toEqual([]);
    expect(parse(['event: lonely\n\n'])).toEqual([]);
  });

  it('treats a lone CR as a line end (a final CR waits: it may be half of a CRLF)', () => {
    expect(parse(['data: a\r\rdata: b\r', '\r'])).toEqual([{ event: 'message', data: 'a' }]);
    expect(parse(['data: a\r\rdata: b\r', '\r', ': next\n'])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { readServerSentEvents, type ServerSentEvent } from './server-sent-events';

/** A body that arrives in the given pieces, as a network would cut it. */
function bodyOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function eventsOf(...pieces: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  await readServerSentEvents(bodyOf(...pieces), (e) => events.push(e));
  return events;
}

describe('readServerSentEvents', () => {
  it('hands over each event once its blank line arrives, however the stream is cut', async () => {
    expect(await eventsOf('event: sta', 'te\ndata: {"state":', '"approved"}\n', '\n')).toEqual([
      { event: 'state', data: '{"state":"approved"}' },
    ]);
  });

  it('skips comments (keep-alives), joins data lines, names an unnamed event "message", and reads CRLF and CR', async () => {
    expect(await eventsOf(': keep-alive\n\n', 'data: a\r\ndata: b\r\n\r\n', 'event: state\rdata:x\r\r')).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'state', data: 'x' },
    ]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    expect(await eventsOf('event: state\ndata: {"state":"approved"}\n')).toEqual([]);
  });
});

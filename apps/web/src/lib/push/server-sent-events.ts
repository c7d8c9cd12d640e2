/** One server-sent event: its name (`message` when the stream gives none) and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body (the WHATWG format: `field: value` lines, a blank line ends an event,
 * `:` lines are comments) and hands over each event as it completes. Resolves when the stream ends.
 */
export async function readServerSentEvents(body: ReadableStream<Uint8Array>, onEvent: (event: ServerSentEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const takeLine = (line: string) => {
    if (line === '') {
      if (data.length) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A line ends at CRLF, LF or CR; a CR at the very end may be half of a CRLF still on its way.
      let match: RegExpExecArray | null;
      while ((match = /\r\n|\n|\r(?!$)/.exec(buffer)) !== null) {
        takeLine(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
      if (done) {
        // At the end a lone CR is a line end after all.
        if (buffer.endsWith('\r')) takeLine(buffer.slice(0, -1));
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

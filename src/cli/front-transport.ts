import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { FrontReplay } from "./front.ts";

/**
 * The SDK server's transport after the stdio front (cli/front.ts): its replies to the requests the front answered
 * and replayed are not sent again but compared with what the front sent; a difference is logged (a bug: the
 * catalog or the front's negotiation no longer gives what the server gives). Everything else passes through.
 */
export function replayingTransport(inner: Transport, replays: Map<string, FrontReplay>, log: (text: string) => void): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message, options) => {
      const id = "id" in message ? message.id : undefined;
      const replay = typeof id === "string" ? replays.get(id) : undefined;
      if (!replay) return inner.send(message, options);
      replays.delete(id as string);
      const given = "result" in message ? JSON.stringify(message.result) : JSON.stringify(message);
      if (given !== replay.result) {
        log(
          `signalint: the stdio front's ${replay.method} answer differs from the server's (please report): front ${replay.result.slice(0, 300)}, server ${given.slice(0, 300)}\n`,
        );
      }
    },
  };
  inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  return outer;
}

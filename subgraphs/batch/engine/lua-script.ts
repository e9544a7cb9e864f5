import { createHash } from 'node:crypto';

export type ScriptArgument = string | Buffer;

/** The slice of a node-redis client that running a script needs. */
export interface ScriptRunner {
  evalSha(sha1: string, options: { keys: string[]; arguments: ScriptArgument[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: ScriptArgument[] }): Promise<unknown>;
}

/** A Lua script sent by its SHA1 once Redis knows it, and in full when Redis has forgotten it. */
export class LuaScript {
  private readonly sha1: string;

  constructor(private readonly body: string) {
    this.sha1 = createHash('sha1').update(body).digest('hex');
  }

  async run(client: ScriptRunner, keys: string[], args: ScriptArgument[]): Promise<unknown> {
    const options = { keys, arguments: args };
    try {
      return await client.evalSha(this.sha1, options);
    } catch (error) {
      // Redis forgets scripts on restart or SCRIPT FLUSH; EVAL sends the body and caches it again.
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return await client.eval(this.body, options);
    }
  }
}

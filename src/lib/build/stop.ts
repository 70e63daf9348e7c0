/** The one way a build phase stops the build: a message for people, a hint saying what to do, an exit code. */
export class BuildStop extends Error {
  /** What to do about it. */
  readonly hint: string;
  /** The process's exit code. */
  readonly exitCode: number;

  constructor(message: string, hint: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'BuildStop';
    this.hint = hint;
    this.exitCode = options.exitCode ?? 1;
  }
}

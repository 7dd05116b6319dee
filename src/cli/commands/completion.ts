import { commandSpec, completionScript, SHELLS, type Shell } from "../completion.ts";
import { type Command, UsageError } from "../io.ts";

/** The registry's entries: what `completion` describes (given by the registry, which loads this module). */
export type CommandEntries = Record<string, { load: () => Promise<Command> }>;

const USAGE = `Usage: cairn completion bash|zsh|fish

Prints a completion script for the shell: commands, their flags and the values flags take.
  bash:  source <(cairn completion bash)           (or save it to ~/.local/share/bash-completion/completions/cairn)
  zsh:   source <(cairn completion zsh)            (after compinit; or save it as _cairn on your $fpath)
  fish:  cairn completion fish | source            (or save it to ~/.config/fish/completions/cairn.fish)`;

/** Words that may follow a command itself. */
const WORDS: Record<string, string[]> = { resume: ["verify"], completion: [...SHELLS] };

export function completionCommand(commands: CommandEntries): Command {
  return {
    name: "completion",
    summary: "print shell completions: cairn completion bash|zsh|fish",
    usage: USAGE,
    async run(argv, io) {
      const [shell, ...rest] = argv;
      if (!shell) throw new UsageError("name the shell: bash, zsh or fish");
      if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
      if (!(SHELLS as readonly string[]).includes(shell))
        throw new UsageError(`completions are for bash, zsh and fish, not '${shell}'`);
      const specs = await Promise.all(
        Object.entries(commands).map(async ([name, entry]) => ({
          ...commandSpec(await entry.load(), WORDS[name] ?? []),
          name,
        })),
      );
      io.stdout.write(completionScript(shell as Shell, specs));
      return 0;
    },
  };
}

import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { BacktestError } from "../backtest/errors.js";
import { RECORDED_SUFFIX } from "../recorded/format.js";

/** An option and its value(s) as given (undefined: not given). */
export type PathOption = readonly [option: string, file: string | readonly string[] | undefined];

// Links followed before a path counts as a loop (Linux's own limit, ELOOP).
const MAX_LINKS = 40;

interface Output {
  readonly option: string;
  readonly path: string;
  /** What a write of `path` creates or replaces, its symlinks followed. */
  readonly target: string;
  /** The file's identity when it exists (dev:ino), else the real path it would be created at. */
  readonly id: string;
}

/**
 * Refuses, before any backtest runs, an output file that could not, or must not, be written when
 * the run ends: its folder missing (`output_dir_missing`) or not a folder (`output_dir_not_folder`),
 * the file itself a folder (`output_is_folder`), a symlink loop (`output_symlink_loop`), `-`
 * (`output_stdout_unsupported`: no mm option takes `-` for stdout), two outputs naming one file
 * (`output_same_file`: the HTML would replace the summary) or an output naming one of the run's
 * inputs (`output_is_input`: the summary would replace the recording or config, for good) or
 * named like a recording (`*.jsonl.gz`, anywhere: `output_recording_name`). A symlink is judged by
 * the file it leads to, a dangling one by its target's folder. Found only at
 * the end, such a file throws away the whole run (hours for a sweep), and with `--html` the summary
 * is already written: half an output. `outputs` and `inputs` pair each option with its value(s);
 * a `--data` directory's inputs are the recordings directly in it. Like `mm import`'s check of OUT.
 * @example await requireOutputFolders(io.cwd, [["--out", values.out]], [["--data", values.data]]);
 */
export async function requireOutputFolders(
  cwd: string,
  outputs: readonly (readonly [option: string, file: string | undefined])[],
  inputs: readonly PathOption[] = [],
): Promise<void> {
  const checked: Output[] = [];
  for (const [option, file] of outputs) {
    if (file === undefined) continue;
    const output = await checkOutput(cwd, option, file);
    const twin = checked.find((o) => o.id === output.id);
    if (twin !== undefined) {
      throw new BacktestError(
        "output_same_file",
        `${option} ${output.path} is the same file as ${twin.option} ${twin.path}: one would overwrite the other; name two files`,
        { option, file: output.path, other: twin.option },
      );
    }
    checked.push(output);
  }
  if (checked.length === 0) return;
  for (const [option, value] of inputs) {
    for (const given of typeof value === "string" ? [value] : (value ?? [])) {
      const path = resolve(cwd, given);
      for (const file of await inputFiles(path)) {
        const id = await fileId(file);
        const output = checked.find((o) => o.id === id);
        if (id === undefined || output === undefined) continue;
        const what = file === path ? `the ${option} file` : `${file} of the ${option} directory`;
        throw new BacktestError(
          "output_is_input",
          `${output.option} ${output.path} is ${what}: the run would overwrite its own input; name another file`,
          { option: output.option, file: output.path, input: option },
        );
      }
    }
  }
  // After the inputs: overwriting one of them is the graver fault, and named as such.
  for (const output of checked) refuseRecordingName(output);
}

/**
 * Refuses an output named like a recording (`*.jsonl.gz`), as given (a symlink is listed by its own
 * name) or where a symlink leads. A backtest writes JSON or HTML, never a recording; with such a
 * name, a later replay of its folder reads it as data (a --data file's own folder included, as
 * rotated files are), and it could replace a recording there. Refused anywhere: the rule needs no
 * guess at which folder will be replayed.
 */
function refuseRecordingName(output: Output): void {
  for (const file of new Set([output.path, output.target])) {
    if (!file.endsWith(RECORDED_SUFFIX)) continue;
    const via = file === output.path ? "" : ` (a symlink to ${file})`;
    throw new BacktestError(
      "output_recording_name",
      `${output.option} ${output.path}${via} is named like a recording (*${RECORDED_SUFFIX}): ` +
        "a replay of its folder would read it as data; a backtest writes JSON or HTML, name it e.g. .json or .html",
      { option: output.option, file: output.path },
    );
  }
}

async function checkOutput(cwd: string, option: string, file: string): Promise<Output> {
  // `./-` still names a file called "-"; the bare dash reads as stdout and is not one.
  if (file === "-") {
    throw new BacktestError(
      "output_stdout_unsupported",
      `${option} -: stdout is not supported, name a file (./- for a file called "-"); ` +
        "without --out a single run prints its summary on stdout",
      { option, file },
    );
  }
  const path = resolve(cwd, file);
  const target = await linkTarget(path);
  const details = { option, file: path };
  if (target === undefined) {
    throw new BacktestError(
      "output_symlink_loop",
      `${option} ${path}: a symlink that leads back to itself (or more than ${MAX_LINKS} links deep)`,
      details,
    );
  }
  const folder = dirname(target);
  // A symlink is written through: say where it leads, the folder checked is its target's.
  const where = target === path ? `${option} ${path}:` : `${option} ${path} (a symlink to ${target}):`;
  const st = await stat(folder).catch(() => undefined);
  if (st === undefined) {
    throw new BacktestError(
      "output_dir_missing",
      `${where} its folder ${folder} does not exist (create it first: mkdir -p ${folder})`,
      details,
    );
  }
  if (!st.isDirectory()) {
    throw new BacktestError("output_dir_not_folder", `${where} ${folder} is not a folder`, details);
  }
  if ((await stat(target).catch(() => undefined))?.isDirectory() === true) {
    throw new BacktestError("output_is_folder", `${option} ${path} is a folder: name a file in it`, details);
  }
  const id = (await fileId(target)) ?? `path:${join(await realpath(folder), basename(target))}`;
  return { option, path, target, id };
}

/** The path a write of `path` lands on, its symlinks followed; undefined for a loop. */
async function linkTarget(path: string): Promise<string | undefined> {
  let cur = path;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const st = await lstat(cur).catch(() => undefined);
    if (st === undefined || !st.isSymbolicLink()) return cur;
    cur = resolve(dirname(cur), await readlink(cur));
  }
  return undefined;
}

/** An existing file's identity (dev:ino, so hard links and symlinks match too), else undefined. */
async function fileId(path: string): Promise<string | undefined> {
  const st = await stat(path).catch(() => undefined);
  return st === undefined ? undefined : `${st.dev}:${st.ino}`;
}

/** The files a run reads for an input: the file, or the recordings directly in a directory. */
async function inputFiles(path: string): Promise<string[]> {
  if ((await stat(path).catch(() => undefined))?.isDirectory() !== true) return [path];
  const names = await readdir(path).catch(() => []);
  return names.filter((n) => n.endsWith(RECORDED_SUFFIX)).map((n) => join(path, n));
}

// Preloaded by a test between bin/hold-signals.mjs and tsx: says it runs, then blocks 2 s, standing
// for tsx compiling mm's TypeScript on a loaded machine (the window a Ctrl-C used to kill mm in).
process.stderr.write("slow-import: loading\n");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);

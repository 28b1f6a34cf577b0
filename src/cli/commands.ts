import { backtestCommand } from "./backtest.js";
import type { Command } from "./command.js";
import { configCommand } from "./config.js";
import { importCommand } from "./import.js";
import { mockCommand } from "./mock.js";
import { paperCommand } from "./paper.js";
import { recordCommand } from "./record.js";
import { reportCommand } from "./report.js";
import { runCommand } from "./run.js";

/** Every `mm` subcommand, in the order `mm --help` lists them. Add new ones here. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  paperCommand,
  configCommand,
  mockCommand,
  recordCommand,
  importCommand,
  backtestCommand,
  reportCommand,
];

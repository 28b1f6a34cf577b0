import type { Command } from "./command.js";
import { configCommand } from "./config.js";
import { importCommand } from "./import.js";

/** Every `mm` subcommand, in the order `mm --help` lists them. Add new ones here. */
export const COMMANDS: readonly Command[] = [configCommand, importCommand];

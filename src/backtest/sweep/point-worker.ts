// The module a sweep's worker threads load (see runPool): serves one grid point at a time.
import { runSweepPoint } from "./point.js";
import { serveTasks } from "./worker-protocol.js";

serveTasks(runSweepPoint);

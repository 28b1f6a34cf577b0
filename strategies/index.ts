export * from "./avellaneda-stoikov.js";
export * from "./bands.js";
export * from "./glft.js";
export * from "./params.js";
export * from "./quoting.js";
export * from "./registry.js";
export * from "./types.js";
export * from "./volatility.js";

#!/usr/bin/env node
// npm links this file as `ombra`; Node 24 (from the `node` dependency) runs the TypeScript.
import './main.ts';

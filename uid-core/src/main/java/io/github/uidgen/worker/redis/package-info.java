/**
 * The Redis worker-ID assigner: reusable worker IDs under leases claimed, renewed and released by Lua scripts,
 * with each worker's high-water mark kept beside them.
 */
package io.github.uidgen.worker.redis;

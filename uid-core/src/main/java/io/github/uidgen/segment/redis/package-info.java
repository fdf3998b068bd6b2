/**
 * The Redis segment store: one counter per key, advanced by {@code INCRBY} through Spring Data Redis.
 */
package io.github.uidgen.segment.redis;

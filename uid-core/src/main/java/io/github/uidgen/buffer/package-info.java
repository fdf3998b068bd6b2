/**
 * The lock-free ring buffer of runs of IDs the cached generator hands IDs out of, the runs threads take from it, and
 * the pluggable policies for a full ring on put and an empty ring on take.
 */
package io.github.uidgen.buffer;

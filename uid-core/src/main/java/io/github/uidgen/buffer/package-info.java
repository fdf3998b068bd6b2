/**
 * The lock-free ring buffer the cached generator hands IDs out of, and the pluggable policies for a full ring on
 * put and an empty ring on take.
 */
package io.github.uidgen.buffer;

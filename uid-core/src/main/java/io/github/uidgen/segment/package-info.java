/**
 * The segment (号段) generator: dense, strictly increasing numbers per key, handed out of ranges ("segments")
 * claimed atomically from a store, with the next segment claimed in the background, on threads all keys share, before
 * the current one runs out (a double buffer); plus the {@link io.github.uidgen.segment.SegmentStore} SPI the stores
 * implement.
 */
package io.github.uidgen.segment;

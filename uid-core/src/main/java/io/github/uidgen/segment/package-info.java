/**
 * The segment (号段) generator: dense, strictly increasing numbers per key, handed out of ranges ("segments")
 * claimed atomically from a store, with the next segment claimed in the background, on threads all keys share, before
 * the current one runs out (a double buffer); plus the {@link io.github.uidgen.segment.SegmentStore} SPI the stores
 * implement.
 *
 * <p>One class per job, so that each can change without the others:
 * <ul>
 * <li>{@link io.github.uidgen.segment.SegmentUidGenerator} — the public face of one key: its builder, its status,
 * its life cycle; {@code getUID()} goes straight to the buffer.</li>
 * <li>{@code SegmentBuffer} — the double buffer: the segment numbers are taken from and its successor. The hot path
 * is one volatile read and one atomic fetch-and-add on the segment's counter (never failing, never retried, unlike a
 * compare-and-set), then a comparison with the segment's end: no lock, no allocation, no logging.</li>
 * <li>{@code SegmentClaimer} — the prefetch of one key: claims the successor in the background once a take reaches
 * {@code prefetchThreshold} percent of the segment, retries a failed claim while the key is in use, and lets callers
 * that found the buffer used up wait for it, at most {@code waitTimeout}; for a start in the background
 * ({@code SegmentUidGenerators.startKey}) it claims the first segment the same way, as the successor of an empty
 * one, and tells {@code awaitFirstSegment()} what came of it.</li>
 * <li>{@code KeyClaims} — the store calls of one key and what they came to: each range checked (never below an
 * earlier one, never above {@code MAX_ID}), the segments claimed, the failure and the retry back-off.</li>
 * <li>{@code AdaptiveStep} — the step policy: twice the step when a segment lasted less than
 * {@code targetInterval}, up to {@code maxStep}; half when it lasted over twice as long, down to {@code step}.
 * Immutable, one for all the keys of a set; each key keeps its own step.</li>
 * <li>{@code SegmentPrefetcher} — the threads the claims run on: one for a generator built on its own, a few shared
 * by all the keys of a {@link io.github.uidgen.segment.SegmentUidGenerators}; a key holds one only while its claim
 * runs.</li>
 * <li>{@code SegmentSettings} — the checked settings behind the builder, copied for each key.</li>
 * </ul>
 */
package io.github.uidgen.segment;

package io.github.uidgen.segment;

import java.time.Instant;

/**
 * One key as a segment store records it, for operators.
 *
 * @param key the key (Leaf's {@code biz_tag})
 * @param maxId the last number of the latest segment handed out to any instance
 * @param step the numbers a claim moves the counter by, when the store keeps one (Leaf's {@code step}); else
 * {@code null}: the generators choose their own
 * @param lastClaim when the counter last moved, by the store's clock; {@code null} when the store does not say
 */
public record StoredKey(String key, long maxId, Long step, Instant lastClaim) {
}

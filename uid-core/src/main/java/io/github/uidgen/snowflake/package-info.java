/**
 * The two generators: {@link io.github.uidgen.snowflake.DefaultUidGenerator}, which computes each ID on the call, and
 * {@link io.github.uidgen.snowflake.CachedUidGenerator}, which hands out IDs produced ahead into a ring buffer; plus
 * the machinery they share to claim a worker ID and keep its high-water mark ahead of issue.
 */
package io.github.uidgen.snowflake;

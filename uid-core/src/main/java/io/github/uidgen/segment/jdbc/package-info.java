/**
 * The database segment stores: uid's own table of counters, one row per key, and Meituan Leaf's {@code leaf_alloc}
 * with Leaf's arithmetic; each claim a relative {@code UPDATE} read back in a transaction of its own.
 */
package io.github.uidgen.segment.jdbc;

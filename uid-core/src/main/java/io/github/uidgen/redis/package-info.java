/**
 * Internal support shared by uid's Redis stores, the worker-ID registry ({@code io.github.uidgen.worker.redis}) and
 * the segment store ({@code io.github.uidgen.segment.redis}), on Spring Data Redis like them; not API: it may change in
 * any release.
 */
package io.github.uidgen.redis;

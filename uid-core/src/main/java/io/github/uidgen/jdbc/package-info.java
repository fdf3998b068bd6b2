/**
 * Internal support shared by uid's database stores, the worker-ID tables ({@code io.github.uidgen.worker.jdbc}) and
 * the segment tables ({@code io.github.uidgen.segment.jdbc}), on spring-jdbc like them; not API: it may change in any
 * release.
 */
package io.github.uidgen.jdbc;

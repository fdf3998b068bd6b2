/**
 * Tests of the monitoring files under {@code docs/operations}: the alerting rules through promtool, and the
 * Grafana dashboard against the series the starter really exports.
 */
package io.github.uidgen.samples.monitoring;

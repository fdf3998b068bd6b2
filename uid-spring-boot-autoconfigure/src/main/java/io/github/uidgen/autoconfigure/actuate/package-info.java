/**
 * Production-ready support for uid: the {@code uid} actuator endpoint, the {@code uid} health indicator and the
 * Micrometer meters, each with its own auto-configuration.
 */
package io.github.uidgen.autoconfigure.actuate;

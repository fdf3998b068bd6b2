/**
 * Auto-configuration of uid's Jackson module: every {@code long} written as a JSON string when asked.
 */
package io.github.uidgen.autoconfigure.jackson;

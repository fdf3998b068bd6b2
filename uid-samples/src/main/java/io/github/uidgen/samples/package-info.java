/**
 * A ready-to-run ID service on the uid starter: HTTP endpoints that hand out IDs, one at a time or in batches.
 */
package io.github.uidgen.samples;

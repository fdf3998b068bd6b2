/**
 * The sample ID service without uid, answering {@code GET /uid} from a counter: the start-up benchmark's baseline.
 */
package io.github.uidgen.baseline;

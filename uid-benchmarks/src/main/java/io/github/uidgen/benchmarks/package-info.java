/**
 * JMH, saturation and memory benchmarks of the uid generators side by side with published peers.
 */
package io.github.uidgen.benchmarks;

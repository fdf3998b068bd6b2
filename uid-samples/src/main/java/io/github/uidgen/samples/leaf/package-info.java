/**
 * Meituan Leaf's HTTP API on the sample ID service ({@code samples.leaf-api.enabled=true}), so that clients of a Leaf
 * server call uid without a change.
 */
package io.github.uidgen.samples.leaf;

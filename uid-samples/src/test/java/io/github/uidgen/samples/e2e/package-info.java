/**
 * End-to-end tests that start the packaged sample jar as separate OS processes and talk to them over HTTP only.
 */
package io.github.uidgen.samples.e2e;

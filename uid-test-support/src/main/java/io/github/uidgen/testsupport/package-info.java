/**
 * Test helpers: the real servers the assigners are tested against, a clock that can be stepped, and duplicate
 * counting.
 */
package io.github.uidgen.testsupport;

/**
 * The Spring-free heart of uid: the ID layout, the {@link io.github.uidgen.UidGenerator} contract,
 * the clock abstraction and the exceptions every generator shares.
 */
package io.github.uidgen;

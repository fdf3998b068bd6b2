/**
 * IDs as text: decimal, radix 62 and 36 (optionally of fixed width, sorting as the IDs do), a readable
 * time-worker-sequence form, prefixes and suffixes, and an opaque keyed form that hides order, time and volume. Every
 * form turns its text back into exactly the ID it came from, or refuses the text saying why.
 */
package io.github.uidgen.text;

/**
 * Jackson 3 support for IDs: written as JSON strings, which JavaScript clients read without losing digits, and read
 * back from strings or numbers.
 */
package io.github.uidgen.jackson;

/**
 * IDs in the JSON of a running Spring MVC application.
 */
package io.github.uidgen.autoconfigure.jackson;

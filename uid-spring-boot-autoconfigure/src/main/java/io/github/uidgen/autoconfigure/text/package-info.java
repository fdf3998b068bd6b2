/**
 * Auto-configuration of the text forms of IDs ({@code uid.text.*}): the application's {@code UidFormats}, the
 * forms of {@code @UidAsString} in JSON, and in Spring MVC and WebFlux request parameters and path variables.
 */
package io.github.uidgen.autoconfigure.text;

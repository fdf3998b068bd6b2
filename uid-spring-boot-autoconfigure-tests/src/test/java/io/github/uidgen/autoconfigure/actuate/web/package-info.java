/**
 * A minimal web application in which the {@code uid} endpoint is tested over HTTP.
 */
package io.github.uidgen.autoconfigure.actuate.web;

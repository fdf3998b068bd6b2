/**
 * IDs as text in a running Spring MVC application, and the auto-configuration of the text forms.
 */
package io.github.uidgen.autoconfigure.text;

/**
 * Moving from Baidu's UidGenerator: its layout, and a uid layout whose new IDs all sort after the IDs already
 * stored.
 */
package io.github.uidgen.migration;

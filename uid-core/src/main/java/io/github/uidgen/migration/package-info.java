/**
 * Moving from Baidu's UidGenerator and Meituan's Leaf: their layouts, and a uid layout whose new IDs all sort after
 * the IDs already stored.
 */
package io.github.uidgen.migration;

/**
 * A MyBatis application with the uid starter, for the tests that insert through its mappers.
 */
package io.github.uidgen.mybatis.app;

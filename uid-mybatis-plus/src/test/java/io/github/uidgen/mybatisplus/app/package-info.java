/**
 * A MyBatis-Plus application with the uid starter, for the tests that insert through its mappers.
 */
package io.github.uidgen.mybatisplus.app;

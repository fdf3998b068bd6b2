package io.github.uidgen.autoconfigure.data.jdbc;

import io.github.uidgen.persistence.UidId;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * The sample Spring Data JDBC aggregate, immutable: saving it with a {@code null} ID inserts a copy carrying an ID
 * from the application's {@code UidGenerator}.
 *
 * @param id the ID, {@code null} until saved
 * @param customer who is billed
 */
@Table // With JPA on the class path too, Spring Data leaves to JDBC only the aggregates marked as relational.
public record Invoice(@Id @UidId Long id, String customer) {

}

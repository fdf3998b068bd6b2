package io.github.uidgen.autoconfigure.data.jdbc;

import org.springframework.data.repository.ListCrudRepository;

/**
 * The repository the test saves invoices through.
 */
public interface InvoiceRepository extends ListCrudRepository<Invoice, Long> {

}

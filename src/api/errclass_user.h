/*
 * Error classes, codes and strings the program adds (MPI_Add_error_class,
 * MPI_Add_error_code, MPI_Add_error_string): what MPI_Error_class,
 * MPI_Error_string, error handlers and the MPI_LASTUSEDCODE attribute ask
 * of them. Callable with or without the library lock held.
 */
#ifndef RD_API_ERRCLASS_USER_H
#define RD_API_ERRCLASS_USER_H

#include <stddef.h>

/* If code is an added class or code: 1 with its class in *cls; else 0. */
int rd_api_user_error_class(int code, int *cls);
/* If code is an added class or code: 1 with its string ("" if none was
 * set) in out; else 0. */
int rd_api_user_error_string(int code, char *out, size_t len);
/* The largest added class or code, at least MPI_ERR_LASTCODE (the value of
 * the MPI_LASTUSEDCODE attribute). */
int rd_api_user_last_code(void);

#endif

/**
 * Version v1beta1 of the wardle example group: the preferred version and the
 * hub that every other version converts through.
 *
 * @groupName wardle.example.com
 * @hub
 */
export {};

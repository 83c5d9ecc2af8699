// The product's name and how it titles a page: a leaf module, so pages and the route table can both read it.
export const PRODUCT_NAME = 'Rounds';

export function pageTitle(title: string | undefined): string {
  return title ? `${title} - ${PRODUCT_NAME}` : PRODUCT_NAME;
}

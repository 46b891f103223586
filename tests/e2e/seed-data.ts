import type { SeedLead } from "../support/seed";

/**
 * The leads every browser-test site starts with, written before its worker
 * starts (a second process writing to D1 while the worker runs would race
 * its writes). Each test uses its own surname.
 */
export const E2E_LEADS: SeedLead[] = [
  { name: "Ana Vinhedo", created_at: Date.UTC(2026, 0, 1, 0, 0), whatsapp: "+5548912345678" },
  { name: "Bruno Vinhedo", created_at: Date.UTC(2026, 0, 2, 12, 30), delivery_status: "sent" },
  { name: "Carla Marcar" },
  { name: "Davi Excluir" },
  { name: "Elisa Filtro", delivery_status: "sent" },
  { name: "Fábio Filtro", delivery_status: "failed", last_error: "HTTP 500: erro interno" },
  {
    name: "Gil Filtro",
    delivery_status: "sent",
    update_status: "failed",
    update_last_error: "HTTP 422: telefone inválido",
  },
  { name: "Gabi Exporta" },
  { name: "Hugo Exporta" },
  { name: "<img src=x onerror=alert(1)> Xss" },
];
